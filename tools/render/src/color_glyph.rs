//! Colour glyphs: emoji and other glyphs a font draws as pictures rather than outlines.
//! A glyph is either a PNG from a CBDT or sbix strike, or COLR layers painted with tiny-skia.
//! Both become one premultiplied image at the text's pixels per em; strikes are resampled with
//! a tent filter as wide as the scale needs, so small sizes average and large ones interpolate.

use tiny_skia::{
    BlendMode, Color, FillRule, FilterQuality, GradientStop, LinearGradient, Mask, Paint,
    PathBuilder, Pixmap, PixmapMut, PixmapPaint, Point, RadialGradient, Rect, Shader, SpreadMode,
    SweepGradient, Transform,
};
use ttf_parser::colr::{CompositeMode, GradientExtend, Painter};
use ttf_parser::{Face, GlyphId, RasterImageFormat, RgbaColor};

use super::texture::Texture;

/// Strike images wider or taller than this are not decoded.
const MAX_STRIKE_SIDE: u32 = 1024;
/// Colour glyph images wider or taller than this many pixels are not made.
const MAX_IMAGE_SIDE: f32 = 2048.0;
/// COLR layers and clips nested deeper than this are painted into the ones around them.
const MAX_NESTING: usize = 16;

/// What a glyph is drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Look {
    /// A filled outline in the text's colour.
    Outline,
    /// Coloured layers (COLR).
    Layers,
    /// A bitmap from a strike (CBDT or sbix).
    Strike,
}

/// How the glyph is drawn: colour layers first, then a bitmap in a format we decode, then the
/// outline.
pub(crate) fn look(face: &Face, glyph: u16) -> Look {
    let id = GlyphId(glyph);
    if face.is_color_glyph(id) {
        return Look::Layers;
    }
    match face.glyph_raster_image(id, u16::MAX) {
        Some(image) if decodable(image.format) => Look::Strike,
        _ => Look::Outline,
    }
}

fn decodable(format: RasterImageFormat) -> bool {
    matches!(
        format,
        RasterImageFormat::PNG | RasterImageFormat::BitmapPremulBgra32
    )
}

/// A strike's picture of a glyph, decoded once: its bottom-left corner sits `x`, `y` strike
/// pixels from the pen (y up), drawn at `ppem` pixels per em.
pub(crate) struct Strike {
    image: Texture,
    x: f32,
    y: f32,
    ppem: f32,
}

impl Strike {
    /// Bytes the decoded picture holds.
    pub fn bytes(&self) -> usize {
        self.image.texels.len() * 4
    }
}

/// Decodes the glyph's largest strike; `Err` says why its picture cannot be used.
pub(crate) fn decode_strike(face: &Face, glyph: u16) -> Result<Strike, String> {
    let raster = face
        .glyph_raster_image(GlyphId(glyph), u16::MAX)
        .ok_or("it has no bitmap")?;
    let image = match raster.format {
        RasterImageFormat::PNG => {
            let (width, height) = png_size(raster.data).ok_or("not a PNG")?;
            if width > MAX_STRIKE_SIDE || height > MAX_STRIKE_SIDE {
                return Err(format!(
                    "a {width}x{height} PNG is larger than {MAX_STRIKE_SIDE} pixels a side"
                ));
            }
            Texture::decode_png(raster.data)?
        }
        RasterImageFormat::BitmapPremulBgra32 => {
            let (width, height) = (raster.width as u32, raster.height as u32);
            let texels: Vec<u32> = raster
                .data
                .chunks_exact(4)
                .map(|p| {
                    let alpha = p[3].max(p[0]).max(p[1]).max(p[2]);
                    u32::from_le_bytes([p[2], p[1], p[0], alpha])
                })
                .collect();
            if width == 0 || texels.len() != width as usize * height as usize {
                return Err("the bitmap data does not match its size".into());
            }
            Texture {
                width,
                height,
                texels,
            }
        }
        other => return Err(format!("{other:?} bitmaps are not drawn")),
    };
    if raster.pixels_per_em == 0 {
        return Err("its strike has no size".into());
    }
    Ok(Strike {
        image,
        x: raster.x as f32,
        y: raster.y as f32,
        ppem: raster.pixels_per_em as f32,
    })
}

/// The width and height a PNG's header declares, read before anything is decoded.
fn png_size(data: &[u8]) -> Option<(u32, u32)> {
    if data.get(..8)? != b"\x89PNG\r\n\x1a\n" || data.get(12..16)? != b"IHDR" {
        return None;
    }
    let word = |at: usize| Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?));
    Some((word(16)?, word(20)?))
}

/// A colour glyph's image at one size, its top-left pixel `left`, `top` pixels from the pen
/// (y down). Premultiplied RGBA8, the canvas's own layout.
pub(crate) struct ColorBitmap {
    pub left: i64,
    pub top: i64,
    pub pixmap: Pixmap,
}

impl ColorBitmap {
    /// Bytes the image holds.
    pub fn bytes(&self) -> usize {
        self.pixmap.data().len()
    }
}

/// Where an image spanning `lo..hi` pixels (fractional) lands on the pixel grid: its first
/// whole pixel, how many pixels it covers, and how far into the first pixel it starts.
fn span(lo: f32, hi: f32) -> Option<(i64, usize, f32)> {
    let first = lo.floor();
    let len = hi.ceil() - first;
    (lo.is_finite() && hi.is_finite() && (1.0..=MAX_IMAGE_SIDE).contains(&len)).then_some((
        first as i64,
        len as usize,
        lo - first,
    ))
}

/// The strike's picture scaled to `em_px` pixels per em, placed on the pixel grid.
pub(crate) fn scale_strike(strike: &Strike, em_px: f32) -> Option<ColorBitmap> {
    let scale = em_px / strike.ppem;
    let (w, h) = (strike.image.width as f32, strike.image.height as f32);
    let (left, width, dx) = span(strike.x * scale, (strike.x + w) * scale)?;
    let (top, height, dy) = span(-(strike.y + h) * scale, -strike.y * scale)?;
    let src: Vec<u8> = strike
        .image
        .texels
        .iter()
        .flat_map(|t| t.to_le_bytes())
        .collect();
    let rgba = resample(
        &src,
        [strike.image.width as usize, strike.image.height as usize],
        scale,
        [dx, dy],
        [width, height],
    );
    let pixmap = Pixmap::from_vec(
        rgba,
        tiny_skia::IntSize::from_wh(width as u32, height as u32)?,
    )?;
    Some(ColorBitmap { left, top, pixmap })
}

/// For each output pixel along one axis, the source pixels it reads (first and count) and their
/// weights: a tent one output pixel wide, and never narrower than one source pixel. Source
/// pixels past the edges count as transparent, so edges fade as they would inside.
struct Taps {
    /// First source pixel, where its weights start in `weights`, and how many there are.
    spans: Vec<(usize, usize, usize)>,
    weights: Vec<f32>,
}

impl Taps {
    fn new(src_len: usize, out_len: usize, scale: f32, offset: f32) -> Taps {
        let radius = (1.0 / scale).max(1.0);
        let mut spans = Vec::with_capacity(out_len);
        let mut weights = Vec::new();
        for o in 0..out_len {
            let centre = (o as f32 + 0.5 - offset) / scale;
            let lo = (centre - radius).floor() as i64;
            let hi = (centre + radius).ceil() as i64;
            let tent = |j: i64| (1.0 - ((j as f32 + 0.5 - centre).abs() / radius)).max(0.0);
            let total: f32 = (lo..=hi).map(tent).sum::<f32>().max(f32::MIN_POSITIVE);
            let first = lo.clamp(0, src_len as i64);
            let last = (hi + 1).clamp(0, src_len as i64);
            let start = weights.len();
            weights.extend((first..last).map(|j| tent(j) / total));
            spans.push((first as usize, start, weights.len() - start));
        }
        Taps { spans, weights }
    }

    /// Output pixel `o`'s first source pixel and the weights of it and those after it.
    fn of(&self, o: usize) -> (usize, &[f32]) {
        let (first, start, count) = self.spans[o];
        (first, &self.weights[start..start + count])
    }
}

/// Resamples premultiplied RGBA8 `src` of `size` by `scale`, its top-left corner landing
/// `offset` pixels into an `out` sized image: rows first, then columns.
fn resample(
    src: &[u8],
    size: [usize; 2],
    scale: f32,
    offset: [f32; 2],
    out: [usize; 2],
) -> Vec<u8> {
    let [w, h] = size;
    let [out_w, out_h] = out;
    let across = Taps::new(w, out_w, scale, offset[0]);
    let down = Taps::new(h, out_h, scale, offset[1]);
    let mut rows = vec![[0f32; 4]; h * out_w];
    for y in 0..h {
        let line = &src[y * w * 4..(y + 1) * w * 4];
        for x in 0..out_w {
            let (first, weights) = across.of(x);
            let mut sum = [0f32; 4];
            for (i, weight) in weights.iter().enumerate() {
                let p = &line[(first + i) * 4..(first + i) * 4 + 4];
                for c in 0..4 {
                    sum[c] += p[c] as f32 * weight;
                }
            }
            rows[y * out_w + x] = sum;
        }
    }
    let mut rgba = vec![0u8; out_w * out_h * 4];
    for y in 0..out_h {
        let (first, weights) = down.of(y);
        for x in 0..out_w {
            let mut sum = [0f32; 4];
            for (i, weight) in weights.iter().enumerate() {
                let p = rows[(first + i) * out_w + x];
                for c in 0..4 {
                    sum[c] += p[c] * weight;
                }
            }
            // Premultiplied channels never exceed alpha, whatever the rounding did.
            let a = sum[3].round().clamp(0.0, 255.0);
            let px = &mut rgba[(y * out_w + x) * 4..(y * out_w + x) * 4 + 4];
            for c in 0..3 {
                px[c] = sum[c].round().clamp(0.0, a) as u8;
            }
            px[3] = a as u8;
        }
    }
    rgba
}

/// Paints the glyph's COLR layers at `em_px` pixels per em (palette 0; layers in the text's own
/// colour are drawn white), placed on the pixel grid.
pub(crate) fn paint_layers(face: &Face, glyph: u16, em_px: f32) -> Option<ColorBitmap> {
    let scale = em_px / face.units_per_em() as f32;
    let id = GlyphId(glyph);
    let white = RgbaColor::new(255, 255, 255, 255);
    let mut bounds = Bounds {
        face,
        transforms: vec![Transform::identity()],
        rect: None,
    };
    face.paint_color_glyph(id, 0, white, &mut bounds)?;
    let r = bounds.rect?;
    let (left, width, _) = span(r.left() * scale, r.right() * scale)?;
    let (top, height, _) = span(-r.bottom() * scale, -r.top() * scale)?;
    let base = Transform::from_row(scale, 0.0, 0.0, -scale, -left as f32, -top as f32);
    let mut layers = Layers {
        face,
        transforms: vec![base],
        path: None,
        clips: Vec::new(),
        clips_skipped: 0,
        layers: vec![(
            Pixmap::new(width as u32, height as u32)?,
            BlendMode::SourceOver,
        )],
        layers_skipped: 0,
    };
    face.paint_color_glyph(id, 0, white, &mut layers)?;
    let (pixmap, _) = layers.layers.into_iter().next()?;
    Some(ColorBitmap { left, top, pixmap })
}

/// The glyph's outline through `transform`, or `None` for an empty glyph.
fn outline(face: &Face, glyph: GlyphId, transform: Transform) -> Option<tiny_skia::Path> {
    let mut builder = super::text::Outline(PathBuilder::new());
    face.outline_glyph(glyph, &mut builder)?;
    builder.0.finish()?.transform(transform)
}

fn to_transform(t: ttf_parser::Transform) -> Transform {
    Transform::from_row(t.a, t.b, t.c, t.d, t.e, t.f)
}

/// First pass over a COLR glyph: the font-unit box its outlines cover.
struct Bounds<'f, 'a> {
    face: &'f Face<'a>,
    transforms: Vec<Transform>,
    rect: Option<Rect>,
}

impl<'a> Painter<'a> for Bounds<'_, 'a> {
    fn outline_glyph(&mut self, glyph: GlyphId) {
        let transform = *self.transforms.last().unwrap_or(&Transform::identity());
        if let Some(b) = outline(self.face, glyph, transform).map(|p| p.bounds()) {
            self.rect = match self.rect {
                None => Some(b),
                Some(r) => Rect::from_ltrb(
                    r.left().min(b.left()),
                    r.top().min(b.top()),
                    r.right().max(b.right()),
                    r.bottom().max(b.bottom()),
                ),
            };
        }
    }
    fn paint(&mut self, _: ttf_parser::colr::Paint<'a>) {}
    fn push_clip(&mut self) {}
    fn push_clip_box(&mut self, _: ttf_parser::colr::ClipBox) {}
    fn pop_clip(&mut self) {}
    fn push_layer(&mut self, _: CompositeMode) {}
    fn pop_layer(&mut self) {}
    fn push_transform(&mut self, t: ttf_parser::Transform) {
        let top = *self.transforms.last().unwrap_or(&Transform::identity());
        self.transforms.push(top.pre_concat(to_transform(t)));
    }
    fn pop_transform(&mut self) {
        self.transforms.pop();
    }
}

/// Second pass: paints into a stack of layers, each paint clipped by the outlines around it.
struct Layers<'f, 'a> {
    face: &'f Face<'a>,
    /// Font units (through the glyph's own transforms) to image pixels.
    transforms: Vec<Transform>,
    path: Option<tiny_skia::Path>,
    clips: Vec<Mask>,
    clips_skipped: usize,
    layers: Vec<(Pixmap, BlendMode)>,
    layers_skipped: usize,
}

impl Layers<'_, '_> {
    fn transform(&self) -> Transform {
        *self.transforms.last().unwrap_or(&Transform::identity())
    }

    fn clip_to(&mut self, path: Option<tiny_skia::Path>) {
        if self.clips.len() >= MAX_NESTING {
            self.clips_skipped += 1;
            return;
        }
        let Some((layer, _)) = self.layers.last() else {
            return;
        };
        let (w, h) = (layer.width(), layer.height());
        let mask = match (self.clips.last(), path) {
            (Some(outer), Some(path)) => {
                let mut mask = outer.clone();
                mask.intersect_path(&path, FillRule::Winding, true, Transform::identity());
                Some(mask)
            }
            (None, Some(path)) => Mask::new(w, h).map(|mut mask| {
                mask.fill_path(&path, FillRule::Winding, true, Transform::identity());
                mask
            }),
            (_, None) => Mask::new(w, h),
        };
        match mask {
            Some(mask) => self.clips.push(mask),
            None => self.clips_skipped += 1,
        }
    }
}

fn stops(iter: impl Iterator<Item = ttf_parser::colr::ColorStop>) -> Vec<GradientStop> {
    let mut stops: Vec<_> = iter.collect();
    stops.sort_by(|a, b| a.stop_offset.total_cmp(&b.stop_offset));
    stops
        .into_iter()
        .map(|s| GradientStop::new(s.stop_offset, color(s.color)))
        .collect()
}

fn color(c: RgbaColor) -> Color {
    Color::from_rgba8(c.red, c.green, c.blue, c.alpha)
}

fn spread(extend: GradientExtend) -> SpreadMode {
    match extend {
        GradientExtend::Pad => SpreadMode::Pad,
        GradientExtend::Repeat => SpreadMode::Repeat,
        GradientExtend::Reflect => SpreadMode::Reflect,
    }
}

fn blend_mode(mode: CompositeMode) -> BlendMode {
    match mode {
        CompositeMode::Clear => BlendMode::Clear,
        CompositeMode::Source => BlendMode::Source,
        CompositeMode::Destination => BlendMode::Destination,
        CompositeMode::SourceOver => BlendMode::SourceOver,
        CompositeMode::DestinationOver => BlendMode::DestinationOver,
        CompositeMode::SourceIn => BlendMode::SourceIn,
        CompositeMode::DestinationIn => BlendMode::DestinationIn,
        CompositeMode::SourceOut => BlendMode::SourceOut,
        CompositeMode::DestinationOut => BlendMode::DestinationOut,
        CompositeMode::SourceAtop => BlendMode::SourceAtop,
        CompositeMode::DestinationAtop => BlendMode::DestinationAtop,
        CompositeMode::Xor => BlendMode::Xor,
        CompositeMode::Plus => BlendMode::Plus,
        CompositeMode::Screen => BlendMode::Screen,
        CompositeMode::Overlay => BlendMode::Overlay,
        CompositeMode::Darken => BlendMode::Darken,
        CompositeMode::Lighten => BlendMode::Lighten,
        CompositeMode::ColorDodge => BlendMode::ColorDodge,
        CompositeMode::ColorBurn => BlendMode::ColorBurn,
        CompositeMode::HardLight => BlendMode::HardLight,
        CompositeMode::SoftLight => BlendMode::SoftLight,
        CompositeMode::Difference => BlendMode::Difference,
        CompositeMode::Exclusion => BlendMode::Exclusion,
        CompositeMode::Multiply => BlendMode::Multiply,
        CompositeMode::Hue => BlendMode::Hue,
        CompositeMode::Saturation => BlendMode::Saturation,
        CompositeMode::Color => BlendMode::Color,
        CompositeMode::Luminosity => BlendMode::Luminosity,
    }
}

/// A COLRv1 linear gradient runs from p0 towards p1, its lines of equal colour parallel to
/// p0-p2: the end point is p1 projected onto the normal of p0-p2.
fn linear_end(p0: Point, p1: Point, p2: Point) -> Point {
    let normal = Point::from_xy(p2.y - p0.y, p0.x - p2.x);
    let length = normal.x * normal.x + normal.y * normal.y;
    if length.is_nan() || length == 0.0 {
        return p1;
    }
    let along = ((p1.x - p0.x) * normal.x + (p1.y - p0.y) * normal.y) / length;
    Point::from_xy(p0.x + normal.x * along, p0.y + normal.y * along)
}

impl<'a> Painter<'a> for Layers<'_, 'a> {
    fn outline_glyph(&mut self, glyph: GlyphId) {
        self.path = outline(self.face, glyph, self.transform());
    }

    fn paint(&mut self, paint: ttf_parser::colr::Paint<'a>) {
        use ttf_parser::colr::Paint as P;
        let t = self.transform();
        let shader = match paint {
            P::Solid(c) => Some(Shader::SolidColor(color(c))),
            P::LinearGradient(g) => {
                let p0 = Point::from_xy(g.x0, g.y0);
                let end = linear_end(p0, Point::from_xy(g.x1, g.y1), Point::from_xy(g.x2, g.y2));
                LinearGradient::new(p0, end, stops(g.stops(0, &[])), spread(g.extend), t)
            }
            P::RadialGradient(g) => RadialGradient::new(
                Point::from_xy(g.x0, g.y0),
                g.r0,
                Point::from_xy(g.x1, g.y1),
                g.r1,
                stops(g.stops(0, &[])),
                spread(g.extend),
                t,
            ),
            P::SweepGradient(g) => SweepGradient::new(
                Point::from_xy(g.center_x, g.center_y),
                g.start_angle * 180.0,
                g.end_angle * 180.0,
                stops(g.stops(0, &[])),
                spread(g.extend),
                t,
            ),
        };
        let (Some(shader), Some((layer, _))) = (shader, self.layers.last_mut()) else {
            return;
        };
        let paint = Paint {
            shader,
            anti_alias: true,
            ..Paint::default()
        };
        let clip = self.clips.last();
        // Version 0 layers paint the outline just given; version 1 paints fill the clips
        // around them (push_clip took the outline).
        if let Some(path) = self.path.take() {
            layer.fill_path(
                &path,
                &paint,
                FillRule::Winding,
                Transform::identity(),
                clip,
            );
        } else if let Some(rect) =
            Rect::from_xywh(0.0, 0.0, layer.width() as f32, layer.height() as f32)
        {
            layer.fill_rect(rect, &paint, Transform::identity(), clip);
        }
    }

    fn push_clip(&mut self) {
        let path = self.path.take();
        self.clip_to(path);
    }

    fn push_clip_box(&mut self, clip: ttf_parser::colr::ClipBox) {
        let path = Rect::from_ltrb(clip.x_min, clip.y_min, clip.x_max, clip.y_max)
            .map(PathBuilder::from_rect)
            .and_then(|p| p.transform(self.transform()));
        self.clip_to(path);
    }

    fn pop_clip(&mut self) {
        if self.clips_skipped > 0 {
            self.clips_skipped -= 1;
        } else {
            self.clips.pop();
        }
    }

    fn push_layer(&mut self, mode: CompositeMode) {
        let size = self.layers.last().map(|(p, _)| (p.width(), p.height()));
        let layer = size.and_then(|(w, h)| Pixmap::new(w, h));
        match layer {
            Some(layer) if self.layers.len() < MAX_NESTING => {
                self.layers.push((layer, blend_mode(mode)));
            }
            _ => self.layers_skipped += 1,
        }
    }

    fn pop_layer(&mut self) {
        if self.layers_skipped > 0 {
            self.layers_skipped -= 1;
            return;
        }
        if self.layers.len() < 2 {
            return;
        }
        let Some((layer, mode)) = self.layers.pop() else {
            return;
        };
        if let Some((below, _)) = self.layers.last_mut() {
            let paint = PixmapPaint {
                blend_mode: mode,
                ..PixmapPaint::default()
            };
            below.draw_pixmap(0, 0, layer.as_ref(), &paint, Transform::identity(), None);
        }
    }

    fn push_transform(&mut self, t: ttf_parser::Transform) {
        let top = self.transform();
        self.transforms.push(top.pre_concat(to_transform(t)));
    }

    fn pop_transform(&mut self) {
        if self.transforms.len() > 1 {
            self.transforms.pop();
        }
    }
}

/// Draws a colour glyph image through `transform` (image pixels to canvas pixels), faded by
/// `alpha / 255`, filtered bilinearly: flipped, turned or unevenly scaled text.
pub(crate) fn draw_transformed(
    canvas: &mut super::raster::Canvas,
    bitmap: &ColorBitmap,
    transform: Transform,
    alpha: u32,
) {
    let Some(mut target) =
        PixmapMut::from_bytes(canvas.px, canvas.width as u32, canvas.height as u32)
    else {
        return;
    };
    let paint = PixmapPaint {
        opacity: alpha.min(255) as f32 / 255.0,
        quality: FilterQuality::Bilinear,
        ..PixmapPaint::default()
    };
    target.draw_pixmap(0, 0, bitmap.pixmap.as_ref(), &paint, transform, None);
}
