//! Textures: PNG files under `assets/textures/`, decoded once and kept by name.
//!
//! A texture that cannot be read is remembered as a failure, so the file is tried once, the
//! warning said once, and every later use draws the magenta and black checker instead.

use std::collections::HashMap;
use std::sync::Arc;

use jengine::host::Assets;

use super::raster::tint_packed;

/// Decoded texels, premultiplied RGBA8 packed little-endian (`u32::from_le_bytes([r, g, b, a])`),
/// top row first.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Texture {
    pub width: u32,
    pub height: u32,
    pub texels: Vec<u32>,
}

impl Texture {
    /// A 1x1 opaque white texture: what untextured sprites and meshes sample.
    pub fn white() -> Texture {
        Texture {
            width: 1,
            height: 1,
            texels: vec![u32::MAX],
        }
    }

    /// The stand-in for a texture that could not be loaded: a 4x4 magenta and black checker.
    pub fn checker() -> Texture {
        let texels = (0..16)
            .map(|i| {
                if (i % 4 + i / 4) % 2 == 0 {
                    u32::from_le_bytes([255, 0, 255, 255])
                } else {
                    u32::from_le_bytes([0, 0, 0, 255])
                }
            })
            .collect();
        Texture {
            width: 4,
            height: 4,
            texels,
        }
    }

    /// Decodes a PNG of any colour type and bit depth into premultiplied RGBA8.
    pub fn decode_png(bytes: &[u8]) -> Result<Texture, String> {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
        let size = reader
            .output_buffer_size()
            .ok_or("the image is too large")?;
        let mut buf = vec![0; size];
        let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
        let (width, height) = (info.width, info.height);
        let pixels = width as usize * height as usize;
        let channels = match info.color_type {
            png::ColorType::Grayscale => 1,
            png::ColorType::GrayscaleAlpha => 2,
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            png::ColorType::Indexed => return Err("palette was not expanded".into()),
        };
        if width == 0 || height == 0 || info.line_size < width as usize * channels {
            return Err(format!("unusable image size {width}x{height}"));
        }
        let mut texels = Vec::with_capacity(pixels);
        for row in buf.chunks(info.line_size).take(height as usize) {
            for p in row[..width as usize * channels].chunks_exact(channels) {
                let [r, g, b, a] = match channels {
                    1 => [p[0], p[0], p[0], 255],
                    2 => [p[0], p[0], p[0], p[1]],
                    3 => [p[0], p[1], p[2], 255],
                    _ => [p[0], p[1], p[2], p[3]],
                };
                let pm = |c: u8| ((c as u32 * a as u32 + 127) / 255) as u8;
                texels.push(u32::from_le_bytes([pm(r), pm(g), pm(b), a]));
            }
        }
        if texels.len() != pixels {
            return Err("the image data is truncated".into());
        }
        Ok(Texture {
            width,
            height,
            texels,
        })
    }
}

/// Reads and decodes the texture `name` from `folder` (the textures folder's files), refusing a
/// name that would leave it. The one way textures are loaded, for drawing and for
/// `jengine check` alike.
pub(crate) fn read_texture(folder: &dyn Assets, name: &str) -> Result<Texture, String> {
    jengine::check_asset_name(name).map_err(|e| format!("bad texture name: {e}"))?;
    let bytes = folder
        .read(name)
        .map_err(|e| format!("texture {name:?} cannot be read ({e})"))?;
    Texture::decode_png(&bytes).map_err(|e| {
        format!(
            "texture {name:?} is not a usable PNG ({}: {e})",
            folder.root().join(name).display()
        )
    })
}

/// Textures by name, each loaded at most once.
pub(crate) struct Textures {
    folder: Arc<dyn Assets>,
    loaded: HashMap<String, Option<Texture>>,
    /// Tinted copies of small textures by name and packed tint (see [`Textures::tint`]).
    tinted: HashMap<String, HashMap<u32, Texture>>,
    tinted_count: usize,
    checker: Texture,
}

/// Textures up to this many texels get cached tinted copies.
const MAX_TINTED_TEXELS: usize = 128 * 128;
/// The tinted copies are dropped when there are more than this many.
const MAX_TINTED_COPIES: usize = 512;

impl Textures {
    /// Textures from the folder `folder` on disk.
    #[cfg(test)]
    pub fn new(folder: &std::path::Path) -> Textures {
        Textures::with_assets(Arc::new(jengine::host::DiskAssets::new(folder)))
    }

    /// Textures from `folder`, the files of a project's `assets/textures`.
    pub fn with_assets(folder: Arc<dyn Assets>) -> Textures {
        Textures {
            folder,
            loaded: HashMap::new(),
            tinted: HashMap::new(),
            tinted_count: 0,
            checker: Texture::checker(),
        }
    }

    /// Loads `name` if it was never tried; a failure is returned as a warning naming the file.
    pub fn load(&mut self, name: &str) -> Option<String> {
        if self.loaded.contains_key(name) {
            return None;
        }
        let (texture, warning) = match read_texture(&*self.folder, name) {
            Ok(t) => (Some(t), None),
            Err(problem) => (None, Some(format!("{problem}; drawing a checker instead"))),
        };
        self.loaded.insert(name.to_string(), texture);
        warning
    }

    /// Makes a copy of loaded texture `name` with `tint` (packed premultiplied) multiplied in,
    /// if it is small enough to be worth keeping; true when [`Textures::tinted`] will find it.
    /// The copy holds exactly what tinting each texel while drawing would give, so using it
    /// changes no pixel, only the time a tinted sprite takes.
    pub fn tint(&mut self, name: &str, tint: u32) -> bool {
        let Some(Some(base)) = self.loaded.get(name) else {
            return false;
        };
        if base.texels.len() > MAX_TINTED_TEXELS {
            return false;
        }
        if self.tinted.get(name).is_some_and(|m| m.contains_key(&tint)) {
            return true;
        }
        if self.tinted_count >= MAX_TINTED_COPIES {
            self.tinted.clear();
            self.tinted_count = 0;
        }
        let factors = tint.to_le_bytes().map(u32::from);
        let copy = Texture {
            width: base.width,
            height: base.height,
            texels: base
                .texels
                .iter()
                .map(|&t| tint_packed(t, factors))
                .collect(),
        };
        self.tinted
            .entry(name.to_string())
            .or_default()
            .insert(tint, copy);
        self.tinted_count += 1;
        true
    }

    /// The tinted copy made by [`Textures::tint`].
    pub fn tinted(&self, name: &str, tint: u32) -> Option<&Texture> {
        self.tinted.get(name)?.get(&tint)
    }

    /// The texture called `name` (load it first), or `Err(checker)` when it failed.
    pub fn get(&self, name: &str) -> Result<&Texture, &Texture> {
        match self.loaded.get(name) {
            Some(Some(t)) => Ok(t),
            _ => Err(&self.checker),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(width: u32, height: u32, color: png::ColorType, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(color);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(data).unwrap();
        writer.finish().unwrap();
        out
    }

    #[test]
    fn pngs_of_every_colour_type_decode_premultiplied() {
        let rgba = encode(
            2,
            1,
            png::ColorType::Rgba,
            &[255, 0, 0, 128, 0, 255, 0, 255],
        );
        let bytes = |t: &Texture| t.texels.iter().map(|t| t.to_le_bytes()).collect::<Vec<_>>();
        let t = Texture::decode_png(&rgba).unwrap();
        assert_eq!(bytes(&t), vec![[128, 0, 0, 128], [0, 255, 0, 255]]);
        let gray = encode(1, 1, png::ColorType::Grayscale, &[77]);
        assert_eq!(
            bytes(&Texture::decode_png(&gray).unwrap()),
            vec![[77, 77, 77, 255]]
        );
        let rgb = encode(1, 2, png::ColorType::Rgb, &[1, 2, 3, 4, 5, 6]);
        let t = Texture::decode_png(&rgb).unwrap();
        assert_eq!((t.width, t.height), (1, 2));
        assert_eq!(bytes(&t)[1], [4, 5, 6, 255]);
    }

    #[test]
    fn garbage_and_truncated_files_are_errors_not_panics() {
        assert!(Texture::decode_png(b"not a png at all").is_err());
        let good = encode(4, 4, png::ColorType::Rgba, &[9; 64]);
        for cut in [8, 20, 40, good.len() - 5] {
            assert!(Texture::decode_png(&good[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn tinted_copies_hold_what_tinting_per_texel_gives() {
        let dir = tempfile::tempdir().unwrap();
        let data = encode(
            2,
            1,
            png::ColorType::Rgba,
            &[255, 128, 0, 255, 10, 20, 30, 40],
        );
        std::fs::write(dir.path().join("t.png"), data).unwrap();
        let mut textures = Textures::new(dir.path());
        assert!(textures.load("t.png").is_none());
        let tint = u32::from_le_bytes([100, 50, 25, 128]);
        assert!(textures.tint("t.png", tint));
        let base = textures.get("t.png").unwrap().texels.clone();
        let copy = textures.tinted("t.png", tint).unwrap();
        let factors = [100, 50, 25, 128];
        let want: Vec<u32> = base.iter().map(|&t| tint_packed(t, factors)).collect();
        assert_eq!(copy.texels, want);
        assert!(!textures.tint("missing.png", tint));
    }

    #[test]
    fn names_outside_the_folder_are_refused_before_any_read() {
        let root = tempfile::tempdir().unwrap();
        let folder = root.path().join("textures");
        std::fs::create_dir_all(&folder).unwrap();
        // A real PNG just outside the folder: reachable by "../", and must not be read.
        std::fs::write(
            root.path().join("secret.png"),
            encode(1, 1, png::ColorType::Rgba, &[1, 2, 3, 4]),
        )
        .unwrap();
        let outside = root.path().join("secret.png");
        for name in [
            "../secret.png",
            outside.to_str().unwrap(),
            "a/../../secret.png",
            "C:\\x.png",
            "a\\..\\..\\secret.png",
            "x\0.png",
            "",
        ] {
            let err = read_texture(&jengine::host::DiskAssets::new(&folder), name).unwrap_err();
            let rule = jengine::check_asset_name(name).unwrap_err();
            assert_eq!(err, format!("bad texture name: {rule}"));
        }
        let mut textures = Textures::new(&folder);
        let warning = textures.load("../secret.png").unwrap();
        assert_eq!(
            warning,
            "bad texture name: \"../secret.png\" leaves its folder: asset names are relative \
             paths inside it; drawing a checker instead"
        );
        assert_eq!(
            textures.get("../secret.png").unwrap_err(),
            &Texture::checker()
        );
    }

    #[test]
    fn a_texture_in_memory_reads_as_the_same_file_on_disk_and_fails_naming_its_path() {
        use jengine::host::{DiskAssets, MemoryAssets};
        let png = encode(2, 1, png::ColorType::Rgba, &[9, 8, 7, 255, 1, 2, 3, 4]);
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("textures/ui")).unwrap();
        std::fs::write(dir.path().join("textures/ui/a.png"), &png).unwrap();
        let mut memory = MemoryAssets::named("game/assets");
        memory.insert("textures/ui/a.png", png).unwrap();
        let memory: Arc<dyn Assets> = Arc::new(memory);
        let disk = DiskAssets::new(&dir.path().join("textures"));
        let from_memory = read_texture(&*jengine::host::within(&memory, "textures"), "ui/a.png");
        assert_eq!(from_memory, read_texture(&disk, "ui/a.png"));
        assert_eq!(from_memory.unwrap().width, 2);
        let mut textures = Textures::with_assets(jengine::host::within(&memory, "textures"));
        assert_eq!(
            textures.load("gone.png").unwrap(),
            "texture \"gone.png\" cannot be read (game/assets/textures/gone.png: no such file); \
             drawing a checker instead"
        );
        assert_eq!(crate::check_texture_in(memory.clone(), "ui/a.png"), Ok(()));
        assert_eq!(
            crate::check_font_in(memory, "gone.otf").unwrap_err(),
            "font \"gone.otf\" cannot be read (game/assets/fonts/gone.otf: no such file)"
        );
    }

    #[test]
    fn a_missing_file_is_tried_once_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut textures = Textures::new(dir.path());
        let warning = textures.load("nope.png").unwrap();
        assert!(warning.contains("\"nope.png\""), "{warning}");
        assert!(textures.load("nope.png").is_none());
        assert_eq!(textures.get("nope.png").unwrap_err(), &Texture::checker());
    }
}
