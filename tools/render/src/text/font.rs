//! Fonts as files: a TTF/OTF read and checked (metrics, tables cut short, a character map,
//! outlines or colour bitmaps), ttf-parser's outlines as tiny-skia paths, and an outline filled
//! into a coverage mask.

use super::*;

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
    pub(super) fn parse(name: String, data: Cow<'static, [u8]>) -> Result<Font, String> {
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
    pub(super) fn glyph(&self, ch: char) -> Option<(u16, f32)> {
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
pub(super) fn rasterise(path: &tiny_skia::Path, scale: f32) -> Option<Bitmap> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
