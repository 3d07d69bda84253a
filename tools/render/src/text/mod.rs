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

pub(crate) mod boxed;
mod font;
mod layout;

use font::rasterise;
pub(crate) use font::{Outline, read_font};
use layout::layout;

use super::Warnings;
use super::camera::{Affine, View};
use super::color_glyph::{self, ColorBitmap, Look, Strike};
use super::raster::{Canvas, fill_image, fill_mask, pack, premultiplied};

/// The host's Japanese font (M PLUS 1, subset; OFL, see `tools/render/fonts/OFL.txt`).
pub(crate) static BUNDLED_FONT: &[u8] = include_bytes!("../../fonts/Mplus1-Regular.subset.otf");
/// The host's colour emoji font (Noto Color Emoji, subset; OFL, see
/// `tools/render/fonts/NotoColorEmoji-OFL.txt`).
pub(crate) static BUNDLED_EMOJI: &[u8] = include_bytes!("../../fonts/NotoColorEmoji.subset.ttf");

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

/// The lines `text` makes once wrapped and its widest line in world units, as [`draw_text`]
/// lays it out in a box; `None` for a size that draws nothing. An empty text makes no lines,
/// and newlines at its end make none either.
pub(crate) fn measure(
    fonts: &mut Fonts,
    text: &Text,
    warnings: &mut Warnings,
) -> Option<(usize, f32)> {
    if !(text.size.is_finite() && text.size > 0.0) {
        return None;
    }
    let said = boxed::without_trailing_newlines(&text.text);
    if said.is_empty() {
        return Some((0, 0.0));
    }
    let font = fonts.font_for(&text.font, warnings);
    let unit = text.size / fonts.fonts[font].line;
    let wrap = text
        .wrap
        .filter(|w| w.is_finite() && *w > 0.0)
        .map(|w| w / unit);
    let (mut lines, mut widest) = (0usize, 0f32);
    layout::layout_each(fonts, font, said, wrap, warnings, |(_, width)| {
        lines += 1;
        widest = widest.max(width);
    });
    Some((lines, widest * unit))
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
    let boxed = match text.height {
        Some(h) if h.is_finite() && h >= 0.0 => Some(h),
        Some(h) => {
            warnings.say(format!(
                "{label}: text height {h} must be zero or more and finite; drawn without a box"
            ));
            None
        }
        None => None,
    };
    let (lines, top) = match boxed {
        None => {
            let lines = layout(fonts, font, &text.text, wrap, warnings);
            let top = lines.len() as f32 * line_units / 2.0;
            (lines, top)
        }
        Some(height) => {
            let rows = boxed::rows(height, text.size);
            let laid = boxed::layout_box(
                fonts,
                font,
                boxed::without_trailing_newlines(&text.text),
                wrap,
                rows,
                text.overflow,
                text.scroll,
                warnings,
            );
            // The box is centred on the position; its lines hang from its top.
            (laid.lines, height / unit / 2.0)
        }
    };
    let to_screen = view.local_to_screen(transform);

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
    use super::layout::emoji_by_default;
    use super::*;
    use jengine::Overflow;
    use std::path::{Path, PathBuf};

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

    #[test]
    fn hostile_boxes_draw_what_fits_and_never_panic() {
        let mut fonts = Fonts::new(Path::new("/nonexistent"));
        let mut w = Warnings::default();
        let boxed = |s: &str, height: Option<f32>, overflow, scroll| Text {
            align: Align::Left,
            wrap: Some(40.0),
            height,
            overflow,
            scroll,
            ..text(s, 8.0)
        };
        let lit = |px: &[u8]| px.chunks(4).filter(|p| p[3] > 0).count();
        let forty: String = (0..40).map(|i| format!("{i}\n")).collect();
        let at_left = Transform2D::at(-40.0, 0.0);
        // Ten rows of a 96-unit canvas: only the box's 80 units are drawn in.
        let ten = draw(
            &mut fonts,
            &boxed(&forty, Some(80.0), Overflow::Clip, 0.0),
            at_left,
            96,
            &mut w,
        );
        let rows_lit = |px: &[u8]| {
            (0..96)
                .filter(|y| (0..96).any(|x| px[(y * 96 + x) * 4 + 3] > 0))
                .collect::<Vec<usize>>()
        };
        let rows = rows_lit(&ten);
        assert!(rows[0] >= 8 && *rows.last().unwrap() < 88, "{rows:?}");
        // No rows, and heights that are not numbers of zero or more.
        let none = draw(
            &mut fonts,
            &boxed(&forty, Some(4.0), Overflow::More, 0.0),
            at_left,
            96,
            &mut w,
        );
        assert_eq!(lit(&none), 0);
        for bad in [-5.0, f32::NAN, f32::INFINITY] {
            let unboxed = draw(
                &mut fonts,
                &boxed("ab", Some(bad), Overflow::More, 0.0),
                at_left,
                96,
                &mut w,
            );
            assert!(lit(&unboxed) > 0, "{bad}: drawn without a box");
        }
        assert!(
            w.pending
                .iter()
                .any(|m| m.contains("height -5") && m.contains("without a box")),
            "{:?}",
            w.pending
        );
        // A huge height puts the box's top far above: nothing lands, nothing breaks.
        for height in [1e30, f32::MAX] {
            draw(
                &mut fonts,
                &boxed(&forty, Some(height), Overflow::Scroll, 3.0),
                at_left,
                96,
                &mut w,
            );
        }
        // Scrolls that are not numbers, or far out of range, show the top or the last rows.
        for scroll in [f32::NAN, f32::NEG_INFINITY, -1e30, 1e30, f32::INFINITY] {
            let px = draw(
                &mut fonts,
                &boxed(&forty, Some(80.0), Overflow::Scroll, scroll),
                at_left,
                96,
                &mut w,
            );
            assert!(lit(&px) > 0, "{scroll}");
        }
        // A megabyte with no break in a box of ten rows.
        let huge = "x".repeat(1 << 20);
        let px = draw(
            &mut fonts,
            &boxed(&huge, Some(80.0), Overflow::Scroll, 5e4),
            at_left,
            96,
            &mut w,
        );
        assert_eq!(
            rows_lit(&px),
            rows_lit(&draw(
                &mut fonts,
                &boxed(&"x".repeat(400), Some(80.0), Overflow::Clip, 0.0),
                at_left,
                96,
                &mut w
            ))
        );
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
}
