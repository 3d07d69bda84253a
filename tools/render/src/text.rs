//! Text: TTF/OTF outlines read with ttf-parser, filled with tiny-skia, laid out in lines of
//! `size` world units (ascender to descender plus line gap), centred vertically on the position.
//! A character the line's font lacks comes from the bundled Japanese font, then the bundled
//! colour emoji font, drawn at the same pixels per em. Upright text copies masks and colour
//! images from caches keyed by (font, glyph id, pixel size), each on a whole pixel; rotated,
//! flipped or unevenly scaled text fills outlines and draws images through the full transform.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use jengine::host::Assets;

use jengine::{Align, Text, Transform2D};
use tiny_skia::{FillRule, Mask, PathBuilder, PixmapMut, Transform};

use super::Warnings;
use super::camera::{Affine, View};
use super::color_glyph::{self, ColorBitmap, Look, Strike};
use super::raster::{Canvas, fill_image, fill_mask, pack, premultiplied};

/// The host's Japanese font (M PLUS 1, subset; OFL, see `tools/render/fonts/OFL.txt`).
pub(crate) static BUNDLED_FONT: &[u8] = include_bytes!("../fonts/Mplus1-Regular.subset.otf");
/// The host's colour emoji font (Noto Color Emoji, subset; OFL, see
/// `tools/render/fonts/NotoColorEmoji-OFL.txt`).
pub(crate) static BUNDLED_EMOJI: &[u8] = include_bytes!("../fonts/NotoColorEmoji.subset.ttf");

/// Upright glyphs taller than this many pixels are filled as paths, not cached.
const MAX_CACHED_LINE_PX: f32 = 512.0;
/// Filled outlines must lie within this many pixels of the canvas origin; a glyph reaching
/// beyond is too large to be text anyone can read, and is skipped.
const MAX_OUTLINE_PX: f32 = 16_000.0;
/// The glyph cache is emptied when it grows past this many masks.
const MAX_CACHED_GLYPHS: usize = 16_384;
/// The colour image caches are emptied when they grow past this many bytes.
const MAX_CACHED_COLOR_BYTES: usize = 64 << 20;

type FontId = usize;

/// The bundled Japanese font: what an empty or unusable font name draws with.
const JAPANESE: FontId = 0;
/// The bundled colour emoji font: the last place a character is looked for.
const EMOJI: FontId = 1;

pub(crate) struct Font {
    name: String,
    data: Cow<'static, [u8]>,
    /// Baseline to top of the line box, in font units (half the line gap included).
    above: f32,
    /// Ascender to descender plus line gap, in font units.
    line: f32,
    /// Units per em: fonts on one line share their pixels per em.
    em: f32,
}

/// A glyph's coverage mask at one pixel size, placed relative to its pen position.
struct Bitmap {
    left: i64,
    top: i64,
    width: usize,
    coverage: Vec<u8>,
}

/// A character's glyph: the font it comes from, its id there, and its advance in the units of
/// the line's font.
#[derive(Clone, Copy)]
struct Glyph {
    font: FontId,
    id: u16,
    advance: f32,
}

/// One glyph placed on a line, in font units from the line's start.
#[derive(Clone, Copy)]
struct Placed {
    font: FontId,
    glyph: u16,
    x: f32,
    advance: f32,
    space: bool,
}

/// Fonts by name, their character maps, outlines and cached glyph masks and colour images.
pub(crate) struct Fonts {
    folder: Arc<dyn Assets>,
    fonts: Vec<Font>,
    by_name: HashMap<String, Option<FontId>>,
    glyphs: HashMap<(FontId, char, bool), Glyph>,
    looks: HashMap<(FontId, u16), Look>,
    outlines: HashMap<(FontId, u16), Option<tiny_skia::Path>>,
    bitmaps: HashMap<(FontId, u16, u32), Option<Bitmap>>,
    strikes: HashMap<(FontId, u16), Option<Strike>>,
    strike_bytes: usize,
    colors: HashMap<(FontId, u16, u32), Option<ColorBitmap>>,
    color_bytes: usize,
}

impl Fonts {
    /// Fonts named by scenes are read from the folder `folder` on disk.
    #[cfg(test)]
    pub fn new(folder: &std::path::Path) -> Fonts {
        Fonts::with_assets(Arc::new(jengine::host::DiskAssets::new(folder)))
    }

    /// Fonts named by scenes are read from `folder`, the files of a project's `assets/fonts`.
    pub fn with_assets(folder: Arc<dyn Assets>) -> Fonts {
        let japanese = Font::parse("the bundled font".into(), Cow::Borrowed(BUNDLED_FONT))
            .expect("the bundled font is a valid OpenType font");
        let emoji = Font::parse(
            "the bundled emoji font".into(),
            Cow::Borrowed(BUNDLED_EMOJI),
        )
        .expect("the bundled emoji font is a valid OpenType font");
        Fonts {
            folder,
            fonts: vec![japanese, emoji],
            by_name: HashMap::new(),
            glyphs: HashMap::new(),
            looks: HashMap::new(),
            outlines: HashMap::new(),
            bitmaps: HashMap::new(),
            strikes: HashMap::new(),
            strike_bytes: 0,
            colors: HashMap::new(),
            color_bytes: 0,
        }
    }

    /// The font a `Text` names: the bundled one for an empty name or one that fails to load.
    fn font_for(&mut self, name: &str, warnings: &mut Warnings) -> FontId {
        if name.is_empty() {
            return JAPANESE;
        }
        if let Some(id) = self.by_name.get(name) {
            return id.unwrap_or(JAPANESE);
        }
        let id = match read_font(&*self.folder, name) {
            Ok(font) => {
                self.fonts.push(font);
                Some(self.fonts.len() - 1)
            }
            Err(problem) => {
                warnings.say(format!("{problem}; using the bundled font"));
                None
            }
        };
        self.by_name.insert(name.to_string(), id);
        id.unwrap_or(JAPANESE)
    }

    /// The glyph for `ch` on a line in font `line`: from that font, else the bundled Japanese
    /// font, else the bundled emoji font (the emoji font before the Japanese one for a
    /// character shown as emoji). A character no font has is the line font's glyph 0, said once.
    fn glyph(&mut self, line: FontId, ch: char, emoji: bool, warnings: &mut Warnings) -> Glyph {
        if let Some(g) = self.glyphs.get(&(line, ch, emoji)) {
            return *g;
        }
        let bundled = if emoji {
            [EMOJI, JAPANESE]
        } else {
            [JAPANESE, EMOJI]
        };
        let named = (line > EMOJI).then_some(line);
        let mut found = None;
        for font in named.into_iter().chain(bundled) {
            if let Some((id, advance)) = self.fonts[font].glyph(ch) {
                let advance = advance * self.fonts[line].em / self.fonts[font].em;
                found = Some(Glyph { font, id, advance });
                break;
            }
        }
        let glyph = found.unwrap_or_else(|| {
            let f = &self.fonts[line];
            let lacking = if line == JAPANESE {
                "no bundled font has a glyph".to_string()
            } else {
                format!("{} nor any bundled font has a glyph", f.name)
            };
            warnings.say(format!(
                "{lacking} for {ch:?} (U+{:04X}); drawing its missing-glyph box",
                ch as u32
            ));
            let advance = ttf_parser::Face::parse(&f.data, 0)
                .ok()
                .and_then(|face| face.glyph_hor_advance(ttf_parser::GlyphId(0)))
                .unwrap_or(0) as f32;
            Glyph {
                font: line,
                id: 0,
                advance,
            }
        });
        self.glyphs.insert((line, ch, emoji), glyph);
        glyph
    }

    /// Whether the glyph is an outline, colour layers or a strike bitmap.
    fn look(&mut self, font: FontId, glyph: u16) -> Look {
        if self.looks.len() > MAX_CACHED_GLYPHS {
            self.looks.clear();
        }
        let fonts = &self.fonts;
        *self.looks.entry((font, glyph)).or_insert_with(|| {
            ttf_parser::Face::parse(&fonts[font].data, 0)
                .map_or(Look::Outline, |face| color_glyph::look(&face, glyph))
        })
    }

    /// The glyph's outline in font units (y up), or `None` for an empty glyph.
    fn outline(&mut self, font: FontId, glyph: u16) -> Option<&tiny_skia::Path> {
        let fonts = &self.fonts;
        self.outlines
            .entry((font, glyph))
            .or_insert_with(|| {
                let face = ttf_parser::Face::parse(&fonts[font].data, 0).ok()?;
                let mut builder = Outline(PathBuilder::new());
                face.outline_glyph(ttf_parser::GlyphId(glyph), &mut builder)?;
                builder.0.finish()
            })
            .as_ref()
    }

    /// How many of font `font`'s lines make one line of font `line`: fonts on one line share
    /// their pixels per em. Exactly 1 for the line's own font.
    fn lines_per_line(&self, line: FontId, font: FontId) -> f32 {
        let (l, f) = (&self.fonts[line], &self.fonts[font]);
        (f.line * l.em) / (l.line * f.em)
    }

    /// The cached mask of a glyph drawn `line_px16 / 16` pixels per line of its font.
    fn bitmap(&mut self, font: FontId, glyph: u16, line_px16: u32) -> Option<&Bitmap> {
        if self.bitmaps.len() > MAX_CACHED_GLYPHS {
            self.bitmaps.clear();
        }
        if !self.bitmaps.contains_key(&(font, glyph, line_px16)) {
            let scale = line_px16 as f32 / 16.0 / self.fonts[font].line;
            let bitmap = self
                .outline(font, glyph)
                .and_then(|path| rasterise(path, scale));
            self.bitmaps.insert((font, glyph, line_px16), bitmap);
        }
        self.bitmaps[&(font, glyph, line_px16)].as_ref()
    }

    /// The cached colour image of a glyph drawn `line_px16 / 16` pixels per line of its font.
    /// A strike whose picture cannot be decoded is said once and draws nothing.
    fn color_bitmap(
        &mut self,
        font: FontId,
        glyph: u16,
        look: Look,
        line_px16: u32,
        warnings: &mut Warnings,
    ) -> Option<&ColorBitmap> {
        if self.colors.len() > MAX_CACHED_GLYPHS || self.color_bytes > MAX_CACHED_COLOR_BYTES {
            self.colors.clear();
            self.color_bytes = 0;
        }
        let key = (font, glyph, line_px16);
        if !self.colors.contains_key(&key) {
            let f = &self.fonts[font];
            let em_px = line_px16 as f32 / 16.0 * f.em / f.line;
            let bitmap = match look {
                Look::Strike => self
                    .strike(font, glyph, warnings)
                    .and_then(|strike| color_glyph::scale_strike(strike, em_px)),
                Look::Layers => ttf_parser::Face::parse(&self.fonts[font].data, 0)
                    .ok()
                    .and_then(|face| color_glyph::paint_layers(&face, glyph, em_px)),
                Look::Outline => None,
            };
            self.color_bytes += bitmap.as_ref().map_or(0, ColorBitmap::bytes);
            self.colors.insert(key, bitmap);
        }
        self.colors[&key].as_ref()
    }

    /// The glyph's strike picture, decoded once.
    fn strike(&mut self, font: FontId, glyph: u16, warnings: &mut Warnings) -> Option<&Strike> {
        if self.strikes.len() > MAX_CACHED_GLYPHS || self.strike_bytes > MAX_CACHED_COLOR_BYTES {
            self.strikes.clear();
            self.strike_bytes = 0;
        }
        let f = &self.fonts[font];
        let strike = self.strikes.entry((font, glyph)).or_insert_with(|| {
            let decoded = ttf_parser::Face::parse(&f.data, 0)
                .map_err(|e| e.to_string())
                .and_then(|face| color_glyph::decode_strike(&face, glyph));
            match decoded {
                Ok(strike) => {
                    self.strike_bytes += strike.bytes();
                    Some(strike)
                }
                Err(problem) => {
                    warnings.say(format!(
                        "{}: the colour bitmap of glyph {glyph} is not usable ({problem}); \
                         not drawn",
                        f.name
                    ));
                    None
                }
            }
        });
        strike.as_ref()
    }
}

/// Reads and parses the font `name` from `folder` (the fonts folder's files), refusing a name
/// that would leave it. The one way fonts are loaded, for drawing and for `jengine check` alike.
pub(crate) fn read_font(folder: &dyn Assets, name: &str) -> Result<Font, String> {
    jengine::check_asset_name(name).map_err(|e| format!("bad font name: {e}"))?;
    let bytes = folder
        .read(name)
        .map_err(|e| format!("font {name:?} cannot be read ({e})"))?;
    Font::parse(format!("font {name:?}"), Cow::Owned(bytes)).map_err(|e| {
        format!(
            "font {name:?} is not a usable TTF/OTF font ({}: {e})",
            folder.root().join(name).display()
        )
    })
}

impl Font {
    /// `name` is how warnings call the font.
    fn parse(name: String, data: Cow<'static, [u8]>) -> Result<Font, String> {
        let face = ttf_parser::Face::parse(&data, 0).map_err(|e| e.to_string())?;
        let (ascender, descender) = (face.ascender() as f32, face.descender() as f32);
        let gap = face.line_gap() as f32;
        let line = ascender - descender + gap;
        if line <= 0.0 || face.number_of_glyphs() == 0 {
            return Err("it has no usable line metrics or glyphs".into());
        }
        // ttf-parser treats a table cut off by the end of the file as absent, so a truncated
        // font parses and draws some text as boxes; the table directory says how long it was.
        let raw = face.raw_face();
        for record in raw.table_records {
            let end = record.offset as u64 + record.length as u64;
            if end > raw.data.len() as u64 {
                return Err(format!(
                    "the file is truncated: table {} ends at byte {end}, the file has {}",
                    record.tag,
                    raw.data.len()
                ));
            }
        }
        // Without a character map or outlines it would draw nothing at all.
        let tables = face.tables();
        if tables.cmap.is_none() {
            return Err("it has no character map (cmap), so no text can be drawn".into());
        }
        let outlines = tables.glyf.is_some() || tables.cff.is_some() || tables.cff2.is_some();
        let bitmaps = tables.cbdt.is_some() || tables.sbix.is_some();
        if !outlines && !bitmaps {
            return Err(
                "it has no glyph outlines (glyf, CFF or CFF2) or colour bitmaps (CBDT or sbix)"
                    .into(),
            );
        }
        let em = face.units_per_em() as f32;
        Ok(Font {
            name,
            above: ascender + gap / 2.0,
            line,
            em,
            data,
        })
    }

    /// The glyph id and advance (font units) of `ch`, if the font has it.
    fn glyph(&self, ch: char) -> Option<(u16, f32)> {
        let face = ttf_parser::Face::parse(&self.data, 0).ok()?;
        let id = face.glyph_index(ch)?;
        Some((id.0, face.glyph_hor_advance(id).unwrap_or(0) as f32))
    }
}

/// Adapts ttf-parser's outline callbacks to a tiny-skia path.
pub(crate) struct Outline(pub PathBuilder);

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.quad_to(x1, y1, x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.cubic_to(x1, y1, x2, y2, x, y);
    }
    fn close(&mut self) {
        self.0.close();
    }
}

/// Fills an outline (font units, y up) at `scale` pixels per unit into a coverage mask.
fn rasterise(path: &tiny_skia::Path, scale: f32) -> Option<Bitmap> {
    let b = path.bounds();
    let left = (b.left() * scale).floor();
    let top = (-b.bottom() * scale).floor();
    let width = ((b.right() * scale).ceil() - left).max(1.0) as u32;
    let height = ((-b.top() * scale).ceil() - top).max(1.0) as u32;
    let mut mask = Mask::new(width, height)?;
    let transform = Transform::from_row(scale, 0.0, 0.0, -scale, -left, -top);
    mask.fill_path(path, FillRule::Winding, true, transform);
    Some(Bitmap {
        left: left as i64,
        top: top as i64,
        width: width as usize,
        coverage: mask.data().to_vec(),
    })
}

/// Characters that join or select among the ones around them and draw nothing here: variation
/// selectors (U+FE0F asks for the emoji font first), joiners, tags and the byte order mark.
fn invisible(ch: char) -> bool {
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

fn emoji_by_default(ch: char) -> bool {
    let cp = ch as u32;
    cp >= 0x1F000
        || EMOJI_PRESENTATION
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

/// No line may start with these (closing brackets, small kana, Japanese stops).
fn no_break_before(ch: char) -> bool {
    "、。，．,.・：；？！?!ー」』）］｝〉》】々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ)]}"
        .contains(ch)
}

/// Characters a line may break around without a space (CJK scripts).
fn breaks_freely(ch: char) -> bool {
    ch as u32 >= 0x2E80
}

/// Lays out `text` into lines of placed glyphs, wrapping at `wrap` font units.
fn layout(
    fonts: &mut Fonts,
    font: FontId,
    text: &str,
    wrap: Option<f32>,
    warnings: &mut Warnings,
) -> Vec<(Vec<Placed>, f32)> {
    let mut lines = Vec::new();
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
                lines.push(finish_line(line));
                line = Vec::new();
                x = 0.0;
                for mut placed in rest.into_iter().skip_while(|p| p.space) {
                    placed.x = x;
                    x += placed.advance;
                    line.push(placed);
                }
                break_at = None;
            }
            if space && line.is_empty() && !lines.is_empty() && wrap.is_some() {
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
        lines.push(finish_line(line));
    }
    lines
}

/// A line and its width without trailing spaces.
fn finish_line(mut line: Vec<Placed>) -> (Vec<Placed>, f32) {
    while line.last().is_some_and(|p| p.space) {
        line.pop();
    }
    let width = line.last().map_or(0.0, |p| p.x + p.advance);
    (line, width)
}

/// Draws one text component. `label` names the entity in warnings.
pub(crate) fn draw_text(
    canvas: &mut Canvas,
    view: &View,
    transform: &Transform2D,
    text: &Text,
    fonts: &mut Fonts,
    warnings: &mut Warnings,
    label: &str,
) {
    if !(text.size.is_finite() && text.size > 0.0) {
        warnings.say(format!(
            "{label}: text size {} must be positive and finite; not drawn",
            text.size
        ));
        return;
    }
    let color = premultiplied(text.color.0);
    let packed = pack(color);
    if color[3] == 0 || text.text.is_empty() {
        return;
    }
    let font = fonts.font_for(&text.font, warnings);
    let (line_units, above) = (fonts.fonts[font].line, fonts.fonts[font].above);
    let unit = text.size / line_units; // world units per font unit
    let wrap = match text.wrap {
        Some(w) if w.is_finite() && w > 0.0 => Some(w / unit),
        Some(w) => {
            warnings.say(format!(
                "{label}: text wrap {w} must be positive and finite; not wrapping"
            ));
            None
        }
        None => None,
    };
    let lines = layout(fonts, font, &text.text, wrap, warnings);
    let to_screen = view.local_to_screen(transform);
    let top = lines.len() as f32 * line_units / 2.0;

    let [sx, sy] = transform.scale;
    let line_px = text.size * view.ppu * sy;
    let upright = transform.rot == 0.0 && sx == sy && sy > 0.0 && line_px <= MAX_CACHED_LINE_PX;
    // Through a transform, colour images are made at the size the transform shows them (at most
    // the largest cached size) and drawn through it.
    let det = (to_screen.xx * to_screen.yy - to_screen.xy * to_screen.yx).abs();
    if !det.is_finite() {
        return;
    }
    let turned_line_px = (text.size * det.sqrt()).min(MAX_CACHED_LINE_PX);
    let smallest = if upright { line_px } else { turned_line_px };
    if smallest.is_nan() || smallest * 16.0 < 0.5 {
        return;
    }
    let alpha = color[3];
    for (i, (line, width)) in lines.iter().enumerate() {
        let start = match text.align {
            Align::Left => 0.0,
            Align::Center => -width / 2.0,
            Align::Right => -width,
        };
        let baseline = top - i as f32 * line_units - above;
        for placed in line.iter().filter(|p| !p.space) {
            let origin = [(start + placed.x) * unit, baseline * unit];
            let (f, glyph) = (placed.font, placed.glyph);
            let look = fonts.look(f, glyph);
            // The glyph's font is drawn `lines` of its own lines per line of text.
            let lines = fonts.lines_per_line(font, f);
            if upright {
                let pen = to_screen.apply(origin);
                if !(pen[0].abs() < 1e9 && pen[1].abs() < 1e9) {
                    continue;
                }
                let (px, py) = (pen[0].round() as i64, pen[1].round() as i64);
                let line_px16 = (line_px * lines * 16.0).round() as u32;
                if look != Look::Outline {
                    if let Some(b) = fonts.color_bitmap(f, glyph, look, line_px16, warnings) {
                        let width = b.pixmap.width() as usize;
                        let corner = [px + b.left, py + b.top];
                        fill_image(canvas, b.pixmap.data(), width, corner, alpha, [false; 2]);
                    }
                } else if let Some(b) = fonts.bitmap(f, glyph, line_px16) {
                    fill_mask(
                        canvas,
                        &b.coverage,
                        b.width,
                        px + b.left,
                        py + b.top,
                        packed,
                    );
                }
            } else if look != Look::Outline {
                let line_px16 = (turned_line_px * lines * 16.0).round() as u32;
                if line_px16 == 0 {
                    continue;
                }
                if let Some(b) = fonts.color_bitmap(f, glyph, look, line_px16, warnings) {
                    // Local units per image pixel: a line of the glyph's font is `line_px16`.
                    let per_px = text.size * lines / (line_px16 as f32 / 16.0);
                    draw_color_turned(canvas, b, &to_screen, origin, per_px, alpha);
                }
            } else {
                let unit = text.size * lines / fonts.fonts[f].line;
                let Some(path) = fonts.outline(f, glyph) else {
                    continue;
                };
                fill_outline(canvas, path, &to_screen, origin, unit, text.color.0);
            }
        }
    }
}

/// The local-to-screen transform of something drawn at `origin` (local units) whose own units
/// are `unit` local units each, x right and y as `y_sign` says (1 up, -1 down).
fn placed_transform(to_screen: &Affine, origin: [f32; 2], unit: f32, y_sign: f32) -> Transform {
    let o = to_screen.apply(origin);
    Transform::from_row(
        to_screen.xx * unit,
        to_screen.yx * unit,
        to_screen.xy * unit * y_sign,
        to_screen.yy * unit * y_sign,
        o[0],
        o[1],
    )
}

/// Whether the box `[left, top, right, bottom]` (in the transform's source units) lands on a
/// canvas of `size` and within `MAX_OUTLINE_PX` of its origin: anything larger is too large to
/// be text anyone can read, and beyond the range tiny-skia's fixed-point scan handles.
fn drawable(transform: &Transform, [l, t, r, b]: [f32; 4], size: [usize; 2]) -> bool {
    let corners = [[l, t], [r, t], [l, b], [r, b]].map(|[x, y]| {
        [
            transform.sx * x + transform.kx * y + transform.tx,
            transform.ky * x + transform.sy * y + transform.ty,
        ]
    });
    let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    for c in corners {
        for i in 0..2 {
            lo[i] = lo[i].min(c[i]);
            hi[i] = hi[i].max(c[i]);
        }
    }
    let (w, h) = (size[0] as f32, size[1] as f32);
    let sane = lo.iter().chain(&hi).all(|v| v.abs() < MAX_OUTLINE_PX);
    sane && hi[0] >= 0.0 && hi[1] >= 0.0 && lo[0] <= w && lo[1] <= h
}

/// Fills a glyph outline through the entity's full transform (rotated or skewed text).
fn fill_outline(
    canvas: &mut Canvas,
    path: &tiny_skia::Path,
    to_screen: &Affine,
    origin: [f32; 2],
    unit: f32,
    color: [f32; 4],
) {
    let transform = placed_transform(to_screen, origin, unit, 1.0);
    let b = path.bounds();
    let bounds = [b.left(), b.top(), b.right(), b.bottom()];
    if !drawable(&transform, bounds, [canvas.width, canvas.height]) {
        return;
    }
    let Some(mut pixmap) =
        PixmapMut::from_bytes(canvas.px, canvas.width as u32, canvas.height as u32)
    else {
        return;
    };
    let mut paint = tiny_skia::Paint::default();
    let c = color.map(|v| v.clamp(0.0, 1.0));
    paint.set_color_rgba8(
        (c[0] * 255.0).round() as u8,
        (c[1] * 255.0).round() as u8,
        (c[2] * 255.0).round() as u8,
        (c[3] * 255.0).round() as u8,
    );
    paint.anti_alias = true;
    pixmap.fill_path(path, &paint, FillRule::Winding, transform, None);
}

/// Draws a colour glyph image through the entity's full transform (flipped, rotated or
/// unevenly scaled text). Image pixels are `per_px` local units each, y down from the pen.
fn draw_color_turned(
    canvas: &mut Canvas,
    bitmap: &ColorBitmap,
    to_screen: &Affine,
    origin: [f32; 2],
    per_px: f32,
    alpha: u32,
) {
    let corner = [
        origin[0] + bitmap.left as f32 * per_px,
        origin[1] - bitmap.top as f32 * per_px,
    ];
    let transform = placed_transform(to_screen, corner, per_px, -1.0);
    let (w, h) = (bitmap.pixmap.width() as f32, bitmap.pixmap.height() as f32);
    if !drawable(&transform, [0.0, 0.0, w, h], [canvas.width, canvas.height]) {
        return;
    }
    // Mirrored at one image pixel per screen pixel (an entity facing the other way): copied
    // onto whole pixels as upright images are, rather than filtered across two.
    let unit = |v: f32| (v.abs() - 1.0).abs() < 1e-3;
    let t = transform;
    if t.kx == 0.0 && t.ky == 0.0 && unit(t.sx) && unit(t.sy) {
        let mirror = [t.sx < 0.0, t.sy < 0.0];
        let left = t.tx.round() as i64 - if mirror[0] { w as i64 } else { 0 };
        let top = t.ty.round() as i64 - if mirror[1] { h as i64 } else { 0 };
        let data = bitmap.pixmap.data();
        fill_image(canvas, data, w as usize, [left, top], alpha, mirror);
    } else {
        color_glyph::draw_transformed(canvas, bitmap, transform, alpha);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn texts(lines: &[(Vec<Placed>, f32)]) -> Vec<usize> {
        lines.iter().map(|(l, _)| l.len()).collect()
    }

    #[test]
    fn the_bundled_font_has_latin_kana_and_the_games_kanji() {
        let mut fonts = Fonts::new(Path::new("/nonexistent"));
        let mut warnings = Warnings::default();
        for ch in ['A', 'z', '7', 'あ', 'ン', '犬', '言', '葉', '。'] {
            let g = fonts.glyph(JAPANESE, ch, false, &mut warnings);
            assert!(g.font == JAPANESE && g.id != 0 && g.advance > 0.0, "{ch}");
        }
        assert!(warnings.pending.is_empty(), "{:?}", warnings.pending);
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

    #[test]
    fn glyph_masks_are_cached_per_size() {
        let mut fonts = Fonts::new(Path::new("/nonexistent"));
        let mut w = Warnings::default();
        let glyph = fonts.glyph(0, '言', false, &mut w).id;
        let small = fonts.bitmap(0, glyph, 16 * 16).map(|b| b.width).unwrap();
        let big = fonts.bitmap(0, glyph, 64 * 16).map(|b| b.width).unwrap();
        assert!(big > small * 3, "{small} {big}");
        assert_eq!(fonts.bitmaps.len(), 2);
        fonts.bitmap(0, glyph, 16 * 16);
        assert_eq!(fonts.bitmaps.len(), 2);
    }

    #[test]
    fn truncated_fonts_and_names_outside_the_folder_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let fonts = dir.path().join("fonts");
        std::fs::create_dir_all(&fonts).unwrap();
        std::fs::write(fonts.join("whole.otf"), BUNDLED_FONT).unwrap();
        let folder = jengine::host::DiskAssets::new(&fonts);
        assert!(read_font(&folder, "whole.otf").is_ok());
        for cut in [
            0,
            12,
            100,
            1000,
            BUNDLED_FONT.len() / 2,
            BUNDLED_FONT.len() - 200,
        ] {
            std::fs::write(fonts.join("cut.otf"), &BUNDLED_FONT[..cut]).unwrap();
            let err = read_font(&folder, "cut.otf").err();
            assert!(
                err.as_deref()
                    .is_some_and(|e| e.starts_with("font \"cut.otf\" is not a usable TTF/OTF font")),
                "cut at {cut}: {err:?}"
            );
        }
        std::fs::write(dir.path().join("outside.otf"), BUNDLED_FONT).unwrap();
        for name in [
            "../outside.otf",
            "/etc/passwd",
            "a/../../outside.otf",
            "C:\\x.ttf",
            "..\\outside.otf",
            "f\0.ttf",
        ] {
            let err = read_font(&folder, name).err().unwrap();
            let rule = jengine::check_asset_name(name).unwrap_err();
            assert_eq!(err, format!("bad font name: {rule}"));
        }
        let mut loaded = Fonts::new(&fonts);
        let mut w = Warnings::default();
        assert_eq!(loaded.font_for("../outside.otf", &mut w), 0);
        assert_eq!(
            w.pending,
            [
                "bad font name: \"../outside.otf\" leaves its folder: asset names are relative \
              paths inside it; using the bundled font"
            ]
        );
    }

    #[test]
    fn a_file_that_is_not_a_font_falls_back_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bad.ttf"), b"definitely not a font").unwrap();
        let mut fonts = Fonts::new(dir.path());
        let mut w = Warnings::default();
        assert_eq!(fonts.font_for("bad.ttf", &mut w), 0);
        assert_eq!(fonts.font_for("bad.ttf", &mut w), 0);
        assert_eq!(w.pending.len(), 1);
        assert!(w.pending[0].contains("\"bad.ttf\""), "{:?}", w.pending);
    }

    // -----------------------------------------------------------------------------------------
    // Colour glyphs and the fallback fonts.

    /// Draws `text` centred on a `side` x `side` canvas at one pixel per world unit; returns
    /// the premultiplied pixels.
    fn draw(
        fonts: &mut Fonts,
        text: &Text,
        t: Transform2D,
        side: u32,
        w: &mut Warnings,
    ) -> Vec<u8> {
        let camera = jengine::Camera2D {
            size: [side as f32, side as f32],
            ..jengine::Camera2D::default()
        };
        let view = View::new(camera, side, side);
        let mut px = vec![0u8; (side * side * 4) as usize];
        let mut canvas = Canvas {
            px: &mut px,
            width: side as usize,
            height: side as usize,
        };
        draw_text(&mut canvas, &view, &t, text, fonts, w, "test");
        px
    }

    fn text(s: &str, size: f32) -> Text {
        Text {
            text: s.into(),
            size,
            ..Text::default()
        }
    }

    fn flipped() -> Transform2D {
        Transform2D {
            scale: [-1.0, 1.0],
            ..Transform2D::default()
        }
    }

    /// Opaque pixels whose channels differ by more than 60: colour, not grey.
    fn colourful(px: &[u8]) -> usize {
        px.chunks(4)
            .filter(|p| {
                p[3] > 200 && p[..3].iter().max().unwrap() - p[..3].iter().min().unwrap() > 60
            })
            .count()
    }

    fn golden_fonts() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fonts/test")
    }

    #[test]
    fn a_known_emoji_draws_in_its_own_colours_faded_by_the_text_alpha() {
        let mut fonts = Fonts::new(Path::new("/nonexistent"));
        let mut w = Warnings::default();
        let cat = draw(
            &mut fonts,
            &text("🐈", 48.0),
            Transform2D::default(),
            96,
            &mut w,
        );
        assert!(
            colourful(&cat) > 300,
            "{} colourful pixels",
            colourful(&cat)
        );
        // Orange: more red than blue wherever it is coloured.
        let (r, b) = cat
            .chunks(4)
            .fold((0u64, 0u64), |(r, b), p| (r + p[0] as u64, b + p[2] as u64));
        assert!(r > b * 2, "red {r} blue {b}");
        // The text's colour does not tint it; its alpha fades it.
        let dark = Text {
            color: jengine::Color([0.0, 0.0, 0.0, 1.0]),
            ..text("🐈", 48.0)
        };
        assert_eq!(
            draw(&mut fonts, &dark, Transform2D::default(), 96, &mut w),
            cat
        );
        let faded = Text {
            color: jengine::Color([1.0, 1.0, 1.0, 0.5]),
            ..text("🐈", 48.0)
        };
        let faded = draw(&mut fonts, &faded, Transform2D::default(), 96, &mut w);
        let most = |px: &[u8]| px.chunks(4).map(|p| p[3]).max().unwrap();
        assert_eq!(most(&cat), 255);
        assert!((most(&faded) as i32 - 128).abs() <= 1, "{}", most(&faded));
        // Plain text stays grey.
        let kana = draw(
            &mut fonts,
            &text("ねこ", 48.0),
            Transform2D::default(),
            96,
            &mut w,
        );
        assert!(kana.chunks(4).any(|p| p[3] > 200) && colourful(&kana) == 0);
        assert!(w.pending.is_empty(), "{:?}", w.pending);
        assert_eq!(fonts.colors.len(), 1, "one image for the cat at one size");
    }

    #[test]
    fn a_flipped_emoji_is_the_mirror_image_within_a_pixel() {
        let mut fonts = Fonts::new(Path::new("/nonexistent"));
        let mut w = Warnings::default();
        let side = 96;
        let cat = draw(
            &mut fonts,
            &text("🐈", 48.0),
            Transform2D::default(),
            side,
            &mut w,
        );
        let tac = draw(&mut fonts, &text("🐈", 48.0), flipped(), side, &mut w);
        assert_ne!(cat, tac, "the cat faces the other way");
        // Mirrored about the position (the canvas's middle), the pixels land exactly: the
        // flipped image is copied onto whole pixels as the upright one is.
        let rows = |px: &[u8]| -> Vec<Vec<[u8; 4]>> {
            let (pixels, _) = px.as_chunks::<4>();
            pixels.chunks(side as usize).map(|r| r.to_vec()).collect()
        };
        for (y, (a, b)) in rows(&cat).iter().zip(rows(&tac)).enumerate() {
            let mirrored: Vec<[u8; 4]> = b.iter().rev().copied().collect();
            assert!(*a == mirrored, "row {y} is not the mirror image");
        }
        // Turned a little as well, it is drawn through the transform and still in colour.
        let turned = Transform2D {
            rot: 0.3,
            ..flipped()
        };
        let turned = draw(&mut fonts, &text("🐈", 48.0), turned, side, &mut w);
        assert!(colourful(&turned) > 300, "{}", colourful(&turned));
        assert!(w.pending.is_empty(), "{:?}", w.pending);
    }

    #[test]
    fn variation_selectors_and_joiners_draw_nothing() {
        let mut fonts = Fonts::new(Path::new("/nonexistent"));
        let mut w = Warnings::default();
        let lines = layout(
            &mut fonts,
            0,
            "\u{FE0F}\u{200D}\u{FE0E}\u{FEFF}",
            None,
            &mut w,
        );
        assert!(lines[0].0.is_empty() && lines[0].1 == 0.0);
        let one = layout(&mut fonts, 0, "🐈", None, &mut w)[0].1;
        assert_eq!(layout(&mut fonts, 0, "🐈\u{FE0F}", None, &mut w)[0].1, one);
        let joined = layout(&mut fonts, 0, "🐈\u{200D}⬛", None, &mut w);
        assert_eq!(joined[0].0.len(), 2);
        let blank = draw(
            &mut fonts,
            &text("\u{FE0F}\u{200D}", 48.0),
            Transform2D::default(),
            64,
            &mut w,
        );
        assert!(blank.iter().all(|&b| b == 0));
        assert!(w.pending.is_empty(), "{:?}", w.pending);
    }

    #[test]
    fn a_character_comes_from_the_named_font_then_japanese_then_emoji() {
        let mut fonts = Fonts::new(&golden_fonts());
        let mut w = Warnings::default();
        let shapes = fonts.font_for("Shapes.ttf", &mut w);
        assert!(shapes > EMOJI);
        let mut from =
            |fonts: &mut Fonts, line, ch, emoji| fonts.glyph(line, ch, emoji, &mut w).font;
        assert_eq!(from(&mut fonts, shapes, 'A', false), shapes);
        assert_eq!(from(&mut fonts, shapes, 'C', false), JAPANESE);
        assert_eq!(from(&mut fonts, shapes, 'あ', false), JAPANESE);
        assert_eq!(from(&mut fonts, shapes, '🐈', true), EMOJI);
        assert_eq!(from(&mut fonts, JAPANESE, '🐈', true), EMOJI);
        // Both bundled fonts have ▶: text by default, emoji when U+FE0F asks.
        assert_eq!(from(&mut fonts, JAPANESE, '▶', false), JAPANESE);
        assert_eq!(from(&mut fonts, JAPANESE, '▶', true), EMOJI);
        let lines = layout(&mut fonts, JAPANESE, "▶\u{FE0F}▶\u{FE0E}▶", None, &mut w);
        let fonts_used: Vec<FontId> = lines[0].0.iter().map(|p| p.font).collect();
        assert_eq!(fonts_used, [EMOJI, JAPANESE, JAPANESE]);
        // ⚡ is emoji by default; a named font that has a character keeps it.
        assert!(emoji_by_default('⚡') && !emoji_by_default('▶') && !emoji_by_default('A'));
        // The emoji's advance (2550 of 2048 units per em) in the line font's units (1000 per em).
        let advance = fonts.glyph(JAPANESE, '🐈', true, &mut w).advance;
        assert!(
            (advance - 2550.0 * 1000.0 / 2048.0).abs() < 0.01,
            "{advance}"
        );
        assert!(w.pending.is_empty(), "{:?}", w.pending);
    }

    #[test]
    fn huge_hostile_and_endless_emoji_are_bounded() {
        let mut fonts = Fonts::new(Path::new("/nonexistent"));
        let mut w = Warnings::default();
        // 10,000 pixels tall: drawn through the transform from an image of the largest cached
        // size, not one 10,000 pixels tall.
        let huge = draw(
            &mut fonts,
            &text("🐈", 10_000.0),
            Transform2D::default(),
            64,
            &mut w,
        );
        assert!(huge.chunks(4).any(|p| p[3] > 0));
        assert!(
            fonts.color_bytes < 4 * 1024 * 1024,
            "{} bytes",
            fonts.color_bytes
        );
        // Far past what anyone can read: skipped.
        let skipped = draw(
            &mut fonts,
            &text("🐈", 100_000.0),
            Transform2D::default(),
            64,
            &mut w,
        );
        assert!(skipped.iter().all(|&b| b == 0));
        // Negative, zero and non-finite scales draw nothing or something, never panic.
        for scale in [
            [-3.0, -3.0],
            [0.0, 1.0],
            [f32::NAN, 1.0],
            [1.0, f32::INFINITY],
            [1e30, 1e-30],
        ] {
            let t = Transform2D {
                scale,
                ..Transform2D::default()
            };
            draw(&mut fonts, &text("🐈🚩", 24.0), t, 64, &mut w);
        }
        // 100,000 emoji: one cached image, drawn where they reach the canvas.
        let endless = "🐈".repeat(100_000);
        let lines = draw(
            &mut fonts,
            &text(&endless, 24.0),
            Transform2D::default(),
            64,
            &mut w,
        );
        assert!(colourful(&lines) > 100);
        let cat = fonts.glyph(0, '🐈', true, &mut w).id;
        assert!(fonts.colors.keys().filter(|k| k.1 == cat).count() <= 4);
        assert!(w.pending.is_empty(), "{:?}", w.pending);
    }

    #[test]
    fn a_malformed_png_in_a_font_is_said_once_and_draws_nothing() {
        let face = ttf_parser::Face::parse(BUNDLED_EMOJI, 0).unwrap();
        let cat = face.glyph_index('🐈').unwrap();
        let png = face.glyph_raster_image(cat, u16::MAX).unwrap().data;
        let at = png.as_ptr() as usize - BUNDLED_EMOJI.as_ptr() as usize;
        let mut broken = BUNDLED_EMOJI.to_vec();
        // Keep the signature and header size, scramble everything after.
        for (i, b) in broken[at + 24..at + png.len()].iter_mut().enumerate() {
            *b = (i * 7) as u8;
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("broken.ttf"), &broken).unwrap();
        let mut fonts = Fonts::new(dir.path());
        let mut w = Warnings::default();
        let cats = Text {
            font: "broken.ttf".into(),
            ..text("🐈🐈", 32.0)
        };
        for t in [Transform2D::default(), flipped(), Transform2D::default()] {
            let px = draw(&mut fonts, &cats, t, 96, &mut w);
            assert!(px.iter().all(|&b| b == 0));
        }
        assert_eq!(w.pending.len(), 1, "{:?}", w.pending);
        assert!(
            w.pending[0].starts_with("font \"broken.ttf\": the colour bitmap of glyph"),
            "{:?}",
            w.pending
        );
        // Its other glyphs still draw.
        let flag = Text {
            font: "broken.ttf".into(),
            ..text("🚩", 32.0)
        };
        assert!(colourful(&draw(&mut fonts, &flag, Transform2D::default(), 96, &mut w)) > 50);
    }

    #[test]
    fn colr_layers_and_gradients_are_painted() {
        // Layers.ttf (tools/render/fonts/test_font.py): "A" is a red square under a blue one, "B" a
        // square shading from red on the left to blue on the right.
        let mut fonts = Fonts::new(&golden_fonts());
        let mut w = Warnings::default();
        let font = |s: &str| Text {
            font: "Layers.ttf".into(),
            ..text(s, 80.0)
        };
        let pixel = |px: &[u8], x: usize, y: usize| {
            let i = (y * 96 + x) * 4;
            [px[i], px[i + 1], px[i + 2], px[i + 3]]
        };
        // 80 px a line of 1000 units: the squares span 56 px from x = 16 + 8, baseline at 64.
        let a = draw(&mut fonts, &font("A"), Transform2D::default(), 96, &mut w);
        assert_eq!(pixel(&a, 30, 40), [255, 0, 0, 255], "the red layer");
        assert_eq!(pixel(&a, 52, 36), [0, 0, 255, 255], "the blue layer on top");
        let b = draw(&mut fonts, &font("B"), Transform2D::default(), 96, &mut w);
        let (left, right) = (pixel(&b, 28, 40), pixel(&b, 74, 40));
        assert!(left[0] > 200 && left[2] < 60, "{left:?}");
        assert!(right[2] > 200 && right[0] < 60, "{right:?}");
        let mirrored = draw(&mut fonts, &font("B"), flipped(), 96, &mut w);
        let (left, right) = (pixel(&mirrored, 22, 40), pixel(&mirrored, 68, 40));
        assert!(left[2] > 200 && right[0] > 200, "{left:?} {right:?}");
        assert!(w.pending.is_empty(), "{:?}", w.pending);
    }
}
